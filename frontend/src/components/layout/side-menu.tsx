import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';

import './side-menu.css';

export interface SideMenuItem {
  to: string;
  label: string;
}

/** The left menu of the assets and personal areas beside the page's content. */
export function SideMenuLayout({ items, title, children }: { items: SideMenuItem[]; title: string; children: ReactNode }) {
  return (
    <div className="side-layout">
      <nav className="side-menu" aria-label={title} data-testid="side-menu">
        {items.map((item) => (
          <NavLink key={item.to} to={item.to} className={({ isActive }) => `side-link${isActive ? ' active' : ''}`}>
            {item.label}
          </NavLink>
        ))}
      </nav>
      <div className="side-content">{children}</div>
    </div>
  );
}
