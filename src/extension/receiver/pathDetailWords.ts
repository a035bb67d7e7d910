// What a check of the public address found (Test Public Address, the public path watch), in the user's language:
// core keeps the detail's English for the CLI and its Said beside it; a result without one shows its English.
import { isSaid, type Said } from '../../core/presentation';
import { inUserWords } from '../coreWords';

export function pathDetailWords(r: { detail: string; detailSaid?: Said }): string {
  return isSaid(r.detailSaid) ? inUserWords(r.detailSaid) : r.detail;
}
