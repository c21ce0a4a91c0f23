// The default avatar (spec §3: "default: a local image"): the normalizer puts
// DEFAULT_AVATAR_URL on users without one; the file ships in src/ui/public so
// it is served from the viewer's own origin.

export { DEFAULT_AVATAR_URL } from '../../shared/constants.js';
