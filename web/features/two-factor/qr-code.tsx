import { encode } from 'uqr';

/**
 * The enrolment's otpauth:// URI as a QR code for the authenticator app to scan: an SVG drawn
 * from the code's modules (black on white, with the quiet zone apps need), sized for a phone's
 * camera. The manual key beside it serves people who cannot scan.
 */
export function QrCode({ value, label }: { value: string; label: string }) {
  const { data, size } = encode(value, { ecc: 'M', border: 4 });
  let path = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      width={192}
      height={192}
      shapeRendering="crispEdges"
      className="h-48 w-48 rounded-lg bg-white"
      data-testid="two-factor-qr"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
