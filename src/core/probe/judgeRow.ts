// A probe row's verdict: what the service did against what the spec says (and what the sandbox chose where the spec
// is silent), in the words the report shows.
import { rowSpec, type JudgeContext } from './expectations';
import { describe } from './observe';
import { VERDICT_WORDS, type Observation, type RowResult } from './probeTypes';

export function judgeRow(id: string, obs: Observation, ctx: JudgeContext): RowResult {
  const spec = rowSpec(id);
  const j = spec.judge(obs, ctx);
  const base = { id, title: spec.title, request: spec.request, spec: spec.spec, sandbox: spec.sandbox, service: obs };
  const serviceText =
    id.startsWith('webhook-') || id === 'access-token' ? (j.chose ?? observedWords(obs)) : describe(obs);
  if (j.verdict === 'silent') {
    const matchesSandbox = spec.sandboxKey !== undefined && j.key === spec.sandboxKey;
    return {
      ...base,
      serviceText: j.chose ?? serviceText,
      verdict: 'silent',
      verdictText: matchesSandbox
        ? `${VERDICT_WORDS.silent}: the service chose ${j.chose}, as the sandbox does`
        : `${VERDICT_WORDS.silent}: the service chose ${j.chose}, the sandbox ${spec.sandbox}`,
      matchesSandbox,
      notes: j.notes,
    };
  }
  return {
    ...base,
    serviceText,
    verdict: j.verdict,
    verdictText: j.verdict === 'differs' ? `${VERDICT_WORDS.differs}: ${j.notes.join('; ')}` : VERDICT_WORDS['as-spec'],
    notes: j.notes,
  };
}

function observedWords(o: Observation): string {
  const f = o.facts ?? {};
  const parts: string[] = [];
  if (f.method) parts.push(String(f.method));
  if (o.contentType) parts.push(o.contentType);
  if (f.authorizationScheme) parts.push(`Authorization ${f.authorizationScheme}`);
  if (o.jwt) parts.push(`JWT ${o.jwt.alg ?? ''} claims ${Object.keys(o.jwt.claims).join(', ')}`);
  return parts.join(' · ') || describe(o);
}

export function notProbed(id: string, why: string): RowResult {
  const spec = rowSpec(id);
  return {
    id,
    title: spec.title,
    request: spec.request,
    spec: spec.spec,
    sandbox: spec.sandbox,
    serviceText: '—',
    verdict: 'not-probed',
    verdictText: `${VERDICT_WORDS['not-probed']}: ${why}`,
    notes: [why],
  };
}
