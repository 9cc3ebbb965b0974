import { useState } from 'react';

/** A product's logo, or its title's first letter when there is none or it does not load. */
export function ProductLogo({ src, title, large = false }: { src?: string | null; title: string; large?: boolean }) {
  const [broken, setBroken] = useState(false);
  const className = large ? 'earn-logo large' : 'earn-logo';
  if (!src || broken) {
    return (
      <span className={`${className} earn-logo-letter`} aria-hidden="true">
        {title.trim().charAt(0).toUpperCase() || '?'}
      </span>
    );
  }
  return <img className={className} src={src} alt="" onError={() => setBroken(true)} />;
}
