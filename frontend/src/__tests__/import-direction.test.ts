/**
 * Imports point down (issue 29), so a newcomer reads the app from the screens towards the wire
 * without a return trip, and this test fails the day one points up.
 *
 * Floors of `src/`, lowest first: `types` and `config`; `lib` and `i18n`; `stores`; `hooks`;
 * `components`; `features`; `app`. A module imports from its floor or a lower one. A feature
 * (`features/<name>`, or `features/earn/<name>` whose shared parts are `features/earn/common` and the
 * earn texts) imports no other feature, and inside it the lever feature's layout reads down:
 * `types.ts`, `i18n.ts` and the styles < `lib/` < `api/` < `stores/` < `components/` < the pages.
 * Tests (`__tests__/`, `src/test/`) may import anything.
 */
import { describe, expect, it } from 'vitest';

const FLOORS: Record<string, number> = { types: 0, config: 0, lib: 1, i18n: 1, stores: 2, hooks: 3, components: 4, features: 5, app: 6 };
const TOP_FLOOR = 7; // main.tsx
const FEATURE_PARTS = ['types', 'lib', 'api', 'stores', 'components'];
const IMPORTED = [/^\s*(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gm, /^\s*import\s+'([^']+)'/gm, /\bimport\(\s*'([^']+)'\s*\)/g];

/** `spec` as imported by `from` (both relative to `src/`, without extension); null for a package. */
function resolve(from: string, spec: string): string | null {
  if (spec.startsWith('@/')) return spec.slice(2);
  if (!spec.startsWith('.')) return null;
  const parts = from.split('/').slice(0, -1);
  for (const segment of spec.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.') parts.push(segment);
  }
  return parts.join('/');
}

const floorOf = (path: string): number => FLOORS[path.split('/')[0] ?? ''] ?? TOP_FLOOR;

/** The feature a path is in (`features/lever`, `features/earn/lock`) and the path inside it. */
function featureOf(path: string): { root: string; inside: string[] } {
  const parts = path.split('/');
  const depth = parts[1] === 'earn' && parts.length > 3 ? 3 : 2;
  return { root: parts.slice(0, depth).join('/'), inside: parts.slice(depth) };
}

/**
 * 0 for the leaves (`types.ts`, `i18n.ts` that registers the texts, the styles) … 4 for
 * `components/`, 5 for the rest (the pages).
 */
function layerOf(inside: string[]): number {
  const first = inside[0] ?? '';
  if (first.endsWith('.css') || first === 'i18n') return 0;
  const layer = FEATURE_PARTS.indexOf(first);
  return layer === -1 ? FEATURE_PARTS.length : layer;
}

/** What `from` may not import `to` for, or null when the import points down (or level). */
function upward(from: string, to: string): string | null {
  if (floorOf(to) > floorOf(from)) return 'a higher floor';
  if (!from.startsWith('features/') || !to.startsWith('features/')) return null;
  const source = featureOf(from);
  const target = featureOf(to);
  if (source.root !== target.root) {
    const earnShared = target.root === 'features/earn' || target.root === 'features/earn/common';
    return earnShared && from.startsWith('features/earn/') ? null : 'another feature';
  }
  return layerOf(target.inside) > layerOf(source.inside) ? 'a higher part of its feature' : null;
}

/** Every import of `files` (path under `src/` → source text) that points up, as "from → to (why)". */
function upwardImports(files: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [path, text] of Object.entries(files)) {
    if (path.includes('__tests__/') || path.startsWith('test/')) continue;
    const from = path.replace(/\.tsx?$/, '');
    for (const pattern of IMPORTED) {
      for (const [, spec = ''] of text.matchAll(pattern)) {
        const to = resolve(from, spec);
        const why = to === null ? null : upward(from, to);
        if (why) found.push(`${path} → ${spec} (${why})`);
      }
    }
  }
  return found.sort();
}

const sources = import.meta.glob<string>('/src/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true });
const tree = Object.fromEntries(Object.entries(sources).map(([path, text]) => [path.replace(/^\/src\//, ''), text]));

describe('import direction', () => {
  it('reads the whole app', () => {
    expect(Object.keys(tree)).toContain('features/lever/lever-page.tsx');
    expect(Object.keys(tree).length).toBeGreaterThan(200);
  });

  it('has no import that points up', () => {
    expect(upwardImports(tree)).toEqual([]);
  });

  it('finds a planted upward import of every kind', () => {
    const planted = {
      'lib/format.ts': "import type { Position } from '@/features/lever/types';",
      'hooks/use-send-to-login.ts': "import type { LoginReason } from '@/app/require-auth';",
      'features/lever/stores/order-store.ts': "import { thing } from '../lever-page';",
      'features/lever/lib/money.ts': "import type {\n  LeverApi,\n} from '../api/lever-api';",
      'features/spot/components/order-form.tsx': "import { previewOrder } from '@/features/lever/lib/money';",
      'features/earn/common/ui.tsx': "import './../lock/lock-page';",
      'components/market/pair-list.tsx': "const page = () => import('@/features/spot/spot-page');",
    };
    expect(upwardImports(planted)).toEqual([
      "components/market/pair-list.tsx → @/features/spot/spot-page (a higher floor)",
      "features/earn/common/ui.tsx → ./../lock/lock-page (another feature)",
      "features/lever/lib/money.ts → ../api/lever-api (a higher part of its feature)",
      "features/lever/stores/order-store.ts → ../lever-page (a higher part of its feature)",
      "features/spot/components/order-form.tsx → @/features/lever/lib/money (another feature)",
      "hooks/use-send-to-login.ts → @/app/require-auth (a higher floor)",
      "lib/format.ts → @/features/lever/types (a higher floor)",
    ]);
  });

  it('lets imports point down or stay level', () => {
    const down = {
      'features/lever/components/order-panel.tsx':
        "import { useLeverPage } from '../stores/lever-page-store';\nimport { LONG } from '../types';\nimport { Pager } from '@/components/market/pager';",
      'features/earn/lock/lock-page.tsx': "import { ReadState } from '../common/ui';\nimport '../i18n';\nimport '../earn.css';",
      'app/router.tsx': "const lever = () => import('@/features/lever/lever-page');",
      'lib/socket.ts': "import { apiClient } from './api-client';\nimport { makeAutoObservable } from 'mobx';",
      'features/lever/__tests__/fixtures.ts': "import { LeverPageStore } from '../stores/lever-page-store';\nimport '../lever-page';",
    };
    expect(upwardImports(down)).toEqual([]);
  });
});
