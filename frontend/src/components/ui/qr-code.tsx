/** A QR code drawn as SVG squares (qrcode-generator computes the modules; nothing is injected as HTML). */
import qrcode from 'qrcode-generator';
import { useMemo } from 'react';

export function QrCode({
  text,
  size = 168,
  label,
  testId = 'qr-code',
}: {
  text: string;
  size?: number;
  label: string;
  testId?: string;
}) {
  const path = useMemo(() => {
    const qr = qrcode(0, 'M');
    qr.addData(text);
    qr.make();
    const count = qr.getModuleCount();
    let d = '';
    for (let row = 0; row < count; row += 1) {
      for (let col = 0; col < count; col += 1) if (qr.isDark(row, col)) d += `M${col} ${row}h1v1h-1z`;
    }
    return { d, count };
  }, [text]);
  const margin = 2;
  const box = path.count + margin * 2;
  return (
    <svg className="qr-code" role="img" aria-label={label} width={size} height={size}
      viewBox={`${-margin} ${-margin} ${box} ${box}`} shapeRendering="crispEdges" data-testid={testId}>
      <rect x={-margin} y={-margin} width={box} height={box} fill="#fff" />
      <path d={path.d} fill="#000" />
    </svg>
  );
}
