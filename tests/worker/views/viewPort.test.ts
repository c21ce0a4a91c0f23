import * as Comlink from 'comlink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VIEW_PORT_HANDLER, type ViewListener, type ViewMessage } from '../../../src/shared/api.js';
import { oneWayListener, registerViewPortSender } from '../../../src/ui/engine/viewPort.js';
import { changedFields, onTheWire, registerViewPortReceiver } from '../../../src/worker/views/viewPort.js';
import { PRIORS } from '../../../src/worker/views/viewHub.js';

// The two halves of the view-port transfer handler (page: ui/engine/viewPort.ts; worker: worker/views/viewPort.ts),
// here in one realm as the Node tests run both ends.

const patch = (version: number): ViewMessage => ({ type: 'patch', version, upserted: { d1: { version } }, removed: [] });

type Halves = Comlink.TransferHandler<unknown, unknown> & { sends: boolean; takes: boolean };
const registered = () => Comlink.transferHandlers.get(VIEW_PORT_HANDLER) as Halves | undefined;

afterEach(() => {
  Comlink.transferHandlers.delete(VIEW_PORT_HANDLER);
  vi.restoreAllMocks();
});

describe('view ports', () => {
  it('make one handler of both halves whichever registers first, and registering again changes nothing', () => {
    registerViewPortReceiver();
    expect(registered()).toMatchObject({ sends: false, takes: true });
    registerViewPortSender();
    const both = registered();
    expect(both).toMatchObject({ sends: true, takes: true });
    registerViewPortSender();
    registerViewPortReceiver();
    expect(registered()).toBe(both);

    Comlink.transferHandlers.delete(VIEW_PORT_HANDLER);
    registerViewPortSender();
    expect(registered()).toMatchObject({ sends: true, takes: false });
    registerViewPortReceiver();
    expect(registered()).toMatchObject({ sends: true, takes: true });
  });

  it('take only listeners marked one-way: another function still crosses as Comlink does it', () => {
    registerViewPortSender();
    const handler = registered()!;
    expect(handler.canHandle(() => undefined)).toBe(false);
    expect(handler.canHandle(oneWayListener(() => undefined))).toBe(true);
    expect(handler.canHandle({ type: 'patch' })).toBe(false);
  });

  it('carry each message to the listener in order, and once let go close both ends and carry nothing more', async () => {
    registerViewPortSender();
    registerViewPortReceiver();
    const handler = registered()!;
    const got: ViewMessage[] = [];
    const [port, transfer] = handler.serialize(oneWayListener((m) => { got.push(m); })) as [MessagePort, Transferable[]];
    expect(transfer).toEqual([port]);
    const send = handler.deserialize(port) as ViewListener & { [Comlink.releaseProxy]: () => void };
    const closed = vi.spyOn(MessagePort.prototype, 'close');
    send(patch(1));
    send(patch(2));
    await vi.waitFor(() => { expect(got.map((m) => m.version)).toEqual([1, 2]); });
    send[Comlink.releaseProxy]();
    send(patch(3));
    // the worker's end closes at once, the page's when the release reaches it
    await vi.waitFor(() => { expect(closed).toHaveBeenCalledTimes(2); });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(got.map((m) => m.version)).toEqual([1, 2]);
    // letting go twice sends nothing more
    send[Comlink.releaseProxy]();
    expect(closed).toHaveBeenCalledTimes(2);
  });

  it("send an entry the page holds as its changed fields, when they are fewer than half of its fields and its keys stay", () => {
    const layers = ['desk_usage'];
    const before = { id: 'd1', kind: 'desk', x: 1, y: 2, layers, color: '#43a047', status: 'free', name: 'D1' };
    const after = { ...before, color: '#e53935', status: 'occupied' };
    expect(changedFields(before, after)).toEqual({ color: '#e53935', status: 'occupied' });
    // the same values: nothing to send as fields (the hub sends no such entry)
    expect(changedFields(before, { ...before })).toBeNull();
    // more than half changed, a field gained or lost, not records: whole
    expect(changedFields(before, { ...after, id: 'd2', kind: 'room', x: 5, y: 6 })).toBeNull();
    expect(changedFields(before, { ...after, heat: 0.5 })).toBeNull();
    const { name: _name, ...unnamed } = after;
    expect(changedFields(before, unnamed)).toBeNull();
    expect(changedFields([1, 2], [1, 3])).toBeNull();
    expect(changedFields('a', 'b')).toBeNull();
    // a list compared by identity: a new list of the same items goes as a field (correct, only larger)
    expect(changedFields(before, { ...before, layers: ['desk_usage'] })).toEqual({ layers: ['desk_usage'] });

    // on the wire: the entries sent before as fields, new ones whole; meta and removals as they were
    const message: ViewMessage = { type: 'patch', version: 4, upserted: { d1: after, d9: before }, removed: ['d5'], meta: { loading: false } };
    Object.defineProperty(message, PRIORS, { value: new Map([['d1', before]]) });
    expect(onTheWire(message)).toEqual({ type: 'patch', version: 4, upserted: { d9: before }, changed: { d1: { color: '#e53935', status: 'occupied' } }, removed: ['d5'], meta: { loading: false } });
    // without priors (a snapshot, a first patch of new keys) the message goes as it is
    const plain: ViewMessage = { type: 'patch', version: 5, upserted: { d9: after }, removed: [] };
    expect(onTheWire(plain)).toBe(plain);
  });

  it('refuse the direction a side does not take: a port reaching the page, a listener sent from the worker', () => {
    registerViewPortSender();
    expect(() => registered()!.deserialize(new MessageChannel().port1)).toThrow('A view port reached the page: only the worker takes them');
    Comlink.transferHandlers.delete(VIEW_PORT_HANDLER);
    registerViewPortReceiver();
    expect(() => registered()!.serialize(oneWayListener(() => undefined))).toThrow('The worker sends no view ports');
  });
});
