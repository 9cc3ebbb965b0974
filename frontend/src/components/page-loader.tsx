/** Shown while the first page's code loads (before the router has rendered anything). */
export function PageLoader() {
  return (
    <div className="page-loader" role="progressbar" aria-busy="true">
      <span className="spinner" />
    </div>
  );
}
