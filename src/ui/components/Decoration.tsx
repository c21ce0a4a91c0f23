// Seasonal avatar decorations (spec §3: hats, masks, crowns), drawn as small
// SVG shapes above a co-worker's avatar of radius r centred at 0,0.

const HAT = new Set(['hat', 'santa_hat', 'christmas_hat', 'santa', 'party_hat', 'witch_hat']);
const MASK = new Set(['mask', 'carnival_mask', 'halloween_mask']);
const CROWN = new Set(['crown', 'king_crown', 'queen_crown']);

export function decorationKind(name: string | null | undefined): 'hat' | 'mask' | 'crown' | 'other' | null {
  if (!name) return null;
  const key = name.toLowerCase();
  if (HAT.has(key) || key.includes('hat')) return 'hat';
  if (MASK.has(key) || key.includes('mask')) return 'mask';
  if (CROWN.has(key) || key.includes('crown')) return 'crown';
  return 'other';
}

export function Decoration({ name, r }: { name: string | null | undefined; r: number }) {
  const kind = decorationKind(name);
  if (!kind) return null;
  switch (kind) {
    case 'hat':
      return (
        <g className="decoration decoration-hat" aria-hidden="true">
          <polygon points={`${-r * 0.8},${-r * 0.7} ${r * 0.8},${-r * 0.7} ${r * 0.2},${-r * 1.9}`} fill="#d32f2f" />
          <rect x={-r * 0.9} y={-r * 0.8} width={r * 1.8} height={r * 0.25} fill="#fff" />
          <circle cx={r * 0.2} cy={-r * 1.9} r={r * 0.18} fill="#fff" />
        </g>
      );
    case 'mask':
      return (
        <g className="decoration decoration-mask" aria-hidden="true">
          <rect x={-r * 0.85} y={-r * 0.35} width={r * 1.7} height={r * 0.4} rx={r * 0.2} fill="#4a148c" opacity={0.85} />
        </g>
      );
    case 'crown':
      return (
        <g className="decoration decoration-crown" aria-hidden="true">
          <polygon
            points={`${-r * 0.7},${-r * 0.8} ${r * 0.7},${-r * 0.8} ${r * 0.8},${-r * 1.6} ${r * 0.35},${-r * 1.15} 0,${-r * 1.7} ${-r * 0.35},${-r * 1.15} ${-r * 0.8},${-r * 1.6}`}
            fill="#fbc02d"
            stroke="#f57f17"
            strokeWidth={r * 0.06}
          />
        </g>
      );
    default:
      return (
        <g className="decoration decoration-other" aria-hidden="true">
          <circle cx={r * 0.75} cy={-r * 0.75} r={r * 0.3} fill="#ffb300" />
        </g>
      );
  }
}
