// V8's sampling profiler around a piece of work, summarised as self time per
// function, total time of our own functions, and time by phase (each sample
// goes to the first named function found walking up its stack). Diagnostic
// benches print it; it is never a target.

import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { fmt } from './report.js';

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

export type Phases = Array<[string, string[]]>;

/** Runs `work` under the profiler (sampling every `intervalUs`); PROFILE_OUT=<file> keeps the raw .cpuprofile. */
export async function profiled<T>(work: () => Promise<T>, intervalUs = 200): Promise<{ result: T; profile: Profile }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
  await session.post('Profiler.start');
  const result = await work();
  const { profile } = await session.post('Profiler.stop') as { profile: Profile };
  session.disconnect();
  if (process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
  return { result, profile };
}

/**
 * The profile as text: by phase, self time, and total time of functions under src/; with `inPhase`, also the
 * self time of the samples whose phase's name contains it.
 */
export function summarize(profile: Profile, phases: Phases, otherPhase = 'other', inPhase?: string): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  /** samples taken while the inspector collected the profile itself (Profiler.stop) are not the work's */
  const inspector = (id: number) => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) if (byId.get(at)!.callFrame.url === 'node:inspector') return true;
    return false;
  };
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => { if (!inspector(id)) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000); });
  const label = (node: ProfileNode) => {
    const file = node.callFrame.url.replace(/^.*\/(src|bench|node_modules)\//, '$1/');
    return `${node.callFrame.functionName || '(anonymous)'} ${file}:${node.callFrame.lineNumber + 1}`;
  };
  const selfBy = new Map<string, number>();
  for (const [id, t] of self) { const l = label(byId.get(id)!); selfBy.set(l, (selfBy.get(l) ?? 0) + t); }
  const totalBy = new Map<string, number>();
  for (const [id, t] of self) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const l = label(byId.get(at)!);
      if (seen.has(l)) continue;
      seen.add(l);
      totalBy.set(l, (totalBy.get(l) ?? 0) + t);
    }
  }
  const all = [...self.values()].reduce((a, b) => a + b, 0);
  const phaseBy = new Map<string, number>();
  const inPhaseBy = new Map<string, number>();
  for (const [id, t] of self) {
    let phase = otherPhase;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = byId.get(at)!.callFrame.functionName;
      const hit = phases.find(([, names]) => names.includes(name));
      if (hit) { phase = hit[0]; break; }
    }
    phaseBy.set(phase, (phaseBy.get(phase) ?? 0) + t);
    if (inPhase && phase.includes(inPhase)) { const l = label(byId.get(id)!); inPhaseBy.set(l, (inPhaseBy.get(l) ?? 0) + t); }
  }
  const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k)
    .map(([l, t]) => `${fmt(t).padStart(8)} ms ${fmt((100 * t) / all).padStart(5)} %  ${l}`).join('\n');
  return [
    `${fmt(all)} ms sampled`,
    `\n## by phase\n${top(phaseBy, 20)}`,
    ...(inPhase ? [`\n## in phase\n${top(inPhaseBy, 30)}`] : []),
    `\n## self time\n${top(selfBy, 40)}`,
    `\n## total time (src/ only)\n${top(new Map([...totalBy].filter(([l]) => l.includes(' src/'))), 45)}`,
  ].join('\n');
}
