/** The status tag of a token sale, by its phase (the spec's 0 in progress / 1 completed when there is none). */
import { useTranslation } from 'react-i18next';

import { StatusTag, type Tone } from '../../common/ui';
import { phaseOf } from '../lib/rules';
import type { Sale, SalePhase } from '../types';

const TONE: Record<SalePhase, Tone> = { upcoming: 'soon', open: 'open', closed: 'done', allocated: 'done' };

export function SaleStatusTag({ sale }: { sale: Pick<Sale, 'phase' | 'status'> }) {
  const { t } = useTranslation('earn');
  const phase = phaseOf(sale);
  return (
    <StatusTag tone={TONE[phase]} testId="sale-status">
      {t(`sales.phase.${phase}`)}
    </StatusTag>
  );
}
