/** The spot trade page (/trade). Placeholder until the trade page lands. */
export default function TradePage() {
  return <div className="trade-page" />;
}
