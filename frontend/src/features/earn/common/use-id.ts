import { useSearchParams } from 'react-router-dom';

/** The `?id=` of a detail page as a positive integer, or null. */
export function useQueryId(): number | null {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  return Number.isInteger(id) && id > 0 ? id : null;
}
