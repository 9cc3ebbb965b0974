/** Status tags of the listing screens: a project's (upcoming, in progress, ended) and an application's. */
import { useTranslation } from 'react-i18next';

import { StatusTag, type Tone } from '../../common/ui';
import { APPLICATION_STATUS, PROJECT_STATUS } from '../types';

const PROJECT: Record<number, { tone: Tone; key: 'upcoming' | 'running' | 'ended' }> = {
  [PROJECT_STATUS.upcoming]: { tone: 'soon', key: 'upcoming' },
  [PROJECT_STATUS.running]: { tone: 'open', key: 'running' },
  [PROJECT_STATUS.ended]: { tone: 'done', key: 'ended' },
};

export function ProjectStatusTag({ status }: { status: number }) {
  const { t } = useTranslation('earn');
  const { tone, key } = PROJECT[status] ?? { tone: 'done', key: 'ended' };
  return (
    <StatusTag tone={tone} testId="listing-status">
      {t(`listing.status.${key}`)}
    </StatusTag>
  );
}

const APPLICATION: Record<number, { tone: Tone; key: 'review' | 'won' | 'lost' }> = {
  [APPLICATION_STATUS.review]: { tone: 'soon', key: 'review' },
  [APPLICATION_STATUS.won]: { tone: 'open', key: 'won' },
  [APPLICATION_STATUS.lost]: { tone: 'done', key: 'lost' },
};

export function ApplicationStatusTag({ status }: { status: number }) {
  const { t } = useTranslation('earn');
  const { tone, key } = APPLICATION[status] ?? { tone: 'done', key: 'lost' };
  return (
    <StatusTag tone={tone} testId="application-status">
      {t(`listing.records.status.${key}`)}
    </StatusTag>
  );
}
