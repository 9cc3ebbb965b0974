/** The status tag of a mining product: not started, in progress, ended. */
import { useTranslation } from 'react-i18next';

import { StatusTag, type Tone } from '../../common/ui';
import { PRODUCT_STATUS } from '../types';

const STATUS: Record<number, { tone: Tone; key: 'notStarted' | 'running' | 'ended' }> = {
  [PRODUCT_STATUS.notStarted]: { tone: 'soon', key: 'notStarted' },
  [PRODUCT_STATUS.running]: { tone: 'open', key: 'running' },
  [PRODUCT_STATUS.ended]: { tone: 'done', key: 'ended' },
};

export function MiningStatusTag({ status }: { status: number }) {
  const { t } = useTranslation('earn');
  const { tone, key } = STATUS[status] ?? { tone: 'open', key: 'running' };
  return (
    <StatusTag tone={tone} testId="mining-status">
      {t(`mining.status.${key}`)}
    </StatusTag>
  );
}
