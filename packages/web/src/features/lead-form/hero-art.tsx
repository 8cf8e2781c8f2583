// Our own vector art (no external images; styles in hero-art.css): floating bank notes and gift cards. Fixed intrinsic size,
// so nothing shifts while it loads; purely decorative, hidden from assistive technology.

function Banknote({ x, y, rotate }: { x: number; y: number; rotate: number }) {
  return (
    <g transform={`translate(${x} ${y}) rotate(${rotate})`}>
      <rect width="120" height="56" rx="6" fill="#2f9e44" stroke="#1b5e20" strokeWidth="2" />
      <rect x="8" y="8" width="104" height="40" rx="4" fill="none" stroke="#b2f2bb" strokeWidth="1.5" />
      <circle cx="60" cy="28" r="14" fill="#b2f2bb" />
      <text
        x="60"
        y="34"
        fontSize="16"
        fontWeight="700"
        textAnchor="middle"
        fill="#1b5e20"
        fontFamily="Arial, sans-serif"
      >
        $
      </text>
      <text x="16" y="22" fontSize="10" fontWeight="700" fill="#ebfbee" fontFamily="Arial, sans-serif">
        100
      </text>
    </g>
  );
}

function GiftCard({ x, y, rotate, color }: { x: number; y: number; rotate: number; color: string }) {
  return (
    <g transform={`translate(${x} ${y}) rotate(${rotate})`}>
      <rect width="100" height="64" rx="8" fill={color} />
      <rect x="62" width="10" height="64" fill="#fff3bf" />
      <rect y="26" width="100" height="10" fill="#fff3bf" />
      <path d="M67 26c-10-14-22-8-14 0M67 26c10-14 22-8 14 0" fill="none" stroke="#fab005" strokeWidth="3" />
      <text x="10" y="56" fontSize="10" fontWeight="700" fill="#fff" fontFamily="Arial, sans-serif">
        GIFT CARD
      </text>
    </g>
  );
}

export function HeroArt() {
  return (
    <svg
      className="uf-hero-art"
      viewBox="0 0 400 300"
      width="400"
      height="300"
      aria-hidden="true"
      focusable="false"
      role="presentation"
    >
      <g className="uf-hero-float-a">
        <Banknote x={30} y={40} rotate={-12} />
      </g>
      <g className="uf-hero-float-b">
        <GiftCard x={230} y={30} rotate={10} color="#7048e8" />
      </g>
      <g className="uf-hero-float-c">
        <Banknote x={200} y={170} rotate={8} />
      </g>
      <g className="uf-hero-float-a">
        <GiftCard x={50} y={180} rotate={-6} color="#e8590c" />
      </g>
    </svg>
  );
}
