// The contract report in a face's language: a row's title, what the spec says, what the sandbox does and the verdict,
// and the summary line, as Saids. A row keeps only its English (the CLI's lines, the reports, the MCP tools): its
// words are found again from its id and its verdict, and what the service did and the reasons it differs or was not
// probed from the Saids the run kept under WORDS (JSON leaves them out): a row read back from JSON shows those as
// they were recorded, as data. Statuses, media types and names are data in any case.
import { english, said, type Said } from '../presentation/said';
import { rowSpec } from './expectations';
import { joinSaid } from './observe';
import { WORDS, type ProbeOutcome, type ProbeReport, type RowResult, type RowSaids, type Verdict } from './probeTypes';

const VERDICT_SAID: Record<Verdict, Said> = {
  'as-spec': said('as the spec says'),
  silent: said('the spec is silent'),
  differs: said('differs from the spec'),
  'not-probed': said('not probed'),
};

/** What a person reads of a row, as Saids. */
export interface ProbeRowWords {
  title: Said;
  spec: Said;
  sandbox: Said;
  verdictText: Said;
  /** What the service did. */
  service: Said;
}

/** The row's words; a row of an unknown id (a report from another version) keeps its English, as data. */
export function probeRowSaid(r: RowResult): ProbeRowWords {
  let spec: ReturnType<typeof rowSpec>['said'];
  try {
    spec = rowSpec(r.id).said;
  } catch {
    spec = { title: said('{0}', r.title), spec: said('{0}', r.spec), sandbox: said('{0}', r.sandbox) };
  }
  const kept: RowSaids = r[WORDS] ?? { service: said('{0}', r.serviceText), notes: r.notes.map((n) => said('{0}', n)) };
  return { ...spec, verdictText: verdictSaid(r, spec.sandbox, kept), service: kept.service };
}

function verdictSaid(r: RowResult, sandbox: Said, kept: RowSaids): Said {
  const words = VERDICT_SAID[r.verdict] ?? said('{0}', r.verdict);
  if (r.verdict === 'silent')
    return r.matchesSandbox
      ? said('{0}: the service chose {1}, as the sandbox does', words, kept.service)
      : said('{0}: the service chose {1}, the sandbox {2}', words, kept.service, sandbox);
  if (r.verdict === 'differs') return said('{0}: {1}', words, joinSaid(kept.notes, '; '));
  if (r.verdict === 'not-probed') return said('{0}: {1}', words, kept.notes[0] ?? '');
  return words;
}

/** How the probe ended, when it stopped early: the run's Said, or a message read back from JSON as data. */
export function probeOutcomeSaid(o: ProbeOutcome): Said | undefined {
  return o[WORDS] ?? (o.message !== undefined ? said('{0}', o.message) : undefined);
}

/** One sentence for the end of a run: how many rows of each verdict, and what to do next. */
export function probeSummarySaid(r: ProbeReport): Said {
  const c = r.counts;
  const asSandbox = r.rows.filter((x) => x.matchesSandbox).length;
  return said(
    '{0} {1} as the spec says, {2} where the spec is silent ({3} as the sandbox does), {4} differ, {5} not probed; {6} requests.',
    summaryHead(r),
    c['as-spec'],
    c.silent,
    asSandbox,
    c.differs,
    c['not-probed'],
    r.requests,
  );
}

function summaryHead(r: ProbeReport): Said {
  const differs = r.counts.differs;
  switch (r.outcome.ended) {
    case 'start-accepted':
      return said('A start was accepted: the probe stopped at once.');
    case 'throttled':
      return said('The probe stopped early (throttled).');
    case 'sign-in-refused':
      return said('The probe stopped early (sign in refused).');
    case 'request-failed':
      return said('The probe stopped early (request failed).');
    default:
      if (differs === 1) return said('1 observation differs from the spec.');
      return differs > 0
        ? said('{0} observations differ from the spec.', differs)
        : said('Nothing differs from the spec.');
  }
}

/** The summary line in English, as the CLI prints it. */
export function summaryLine(r: ProbeReport): string {
  return english(probeSummarySaid(r));
}
