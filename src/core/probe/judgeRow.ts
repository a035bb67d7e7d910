// A probe row's verdict: what the service did against what the spec says (and what the sandbox chose where the spec
// is silent), in the words the report shows. The English fields are what the CLI, the reports and the MCP tools
// print; the same words as Saids are kept under WORDS for a face that words them (probeWords.ts).
import { english, said, type Said } from '../presentation/said';
import { rowSpec, type JudgeContext } from './expectations';
import { describeSaid, joinSaid } from './observe';
import { VERDICT_WORDS, WORDS, type Observation, type RowResult } from './probeTypes';

export function judgeRow(id: string, obs: Observation, ctx: JudgeContext): RowResult {
  const spec = rowSpec(id);
  const j = spec.judge(obs, ctx);
  const base = { id, title: spec.title, request: spec.request, spec: spec.spec, sandbox: spec.sandbox, service: obs };
  const notes = j.notes.map(english);
  const shown: Said =
    id.startsWith('webhook-') || id === 'access-token' ? (j.chose ?? observedWords(obs)) : describeSaid(obs);
  if (j.verdict === 'silent') {
    const matchesSandbox = spec.sandboxKey !== undefined && j.key === spec.sandboxKey;
    const chose = english(j.chose ?? shown);
    return {
      ...base,
      serviceText: chose,
      verdict: 'silent',
      verdictText: matchesSandbox
        ? `${VERDICT_WORDS.silent}: the service chose ${chose}, as the sandbox does`
        : `${VERDICT_WORDS.silent}: the service chose ${chose}, the sandbox ${spec.sandbox}`,
      matchesSandbox,
      notes,
      [WORDS]: { service: j.chose ?? shown, notes: j.notes },
    };
  }
  return {
    ...base,
    serviceText: english(shown),
    verdict: j.verdict,
    verdictText: j.verdict === 'differs' ? `${VERDICT_WORDS.differs}: ${notes.join('; ')}` : VERDICT_WORDS['as-spec'],
    notes,
    [WORDS]: { service: shown, notes: j.notes },
  };
}

function observedWords(o: Observation): Said {
  const f = o.facts ?? {};
  const parts: Said[] = [];
  if (f.method) parts.push(said('{0}', String(f.method)));
  if (o.contentType) parts.push(said('{0}', o.contentType));
  if (f.authorizationScheme) parts.push(said('Authorization {0}', String(f.authorizationScheme)));
  if (o.jwt) parts.push(said('JWT {0} claims {1}', o.jwt.alg ?? '', Object.keys(o.jwt.claims).join(', ')));
  return parts.length ? joinSaid(parts, ' · ') : describeSaid(o);
}

/** A row the probe did not send: why, in the report's words. */
export function notProbed(id: string, why: Said): RowResult {
  const spec = rowSpec(id);
  const reason = english(why);
  return {
    id,
    title: spec.title,
    request: spec.request,
    spec: spec.spec,
    sandbox: spec.sandbox,
    serviceText: '—',
    verdict: 'not-probed',
    verdictText: `${VERDICT_WORDS['not-probed']}: ${reason}`,
    notes: [reason],
    [WORDS]: { service: said('{0}', '—'), notes: [why] },
  };
}
