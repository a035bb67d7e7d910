// The audit in a face's language: what a person reads of a case, a result and a check, worded from the Saids kept
// beside their English. A record without them (one not made by runAudit) keeps its English.
import { englishWording, isSaid, said, worded, type Said, type Wording } from '../presentation/said';
import type { AuditCase } from './auditCases';
import type { AuditCaseResult, AuditSummary } from './receiverAudit';
import type { CodeCheck } from './inYourCode';

/** The Said's words, or the English beside it when there is none. */
function wordedOr(s: Said | undefined, english: string, wording: Wording): string {
  return isSaid(s) ? worded(s, wording) : english;
}

/** A case's title in the face's words (the Testing view's item). */
export function auditCaseTitle(c: AuditCase, wording: Wording = englishWording): string {
  return wordedOr(c.said?.title, c.title, wording);
}

/** The group a case belongs to, as a Said: its step ("Step 5"), or what it probes (the rule before its colon). */
export function auditGroupSaid(rule: string): Said {
  const m = /^Step (\d)/.exec(rule);
  if (m) return said('Step {0}', Number(m[1]));
  const head = rule.split(':')[0]!;
  if (head === 'Receiver responses') return said('Receiver responses');
  if (head === 'Duplicates') return said('Duplicates');
  return said('{0}', head);
}

/** A result with its texts in the face's words; the rest as it is. */
export function auditResultWorded(r: AuditCaseResult, wording: Wording = englishWording): AuditCaseResult {
  const w = r.said;
  const { said: _said, ...rest } = r;
  return {
    ...rest,
    title: wordedOr(w?.title, r.title, wording),
    rule: wordedOr(w?.rule, r.rule, wording),
    why: wordedOr(w?.why, r.why, wording),
    fix: wordedOr(w?.fix, r.fix, wording),
    detail: wordedOr(w?.detail, r.detail, wording),
  };
}

function checkWorded(c: CodeCheck, wording: Wording): CodeCheck {
  const { said: w, probe, ...rest } = c;
  return {
    ...rest,
    title: wordedOr(w?.title, c.title, wording),
    lookFor: wordedOr(w?.lookFor, c.lookFor, wording),
    ...(probe ? { probe: { passed: probe.passed, detail: wordedOr(probe.said, probe.detail, wording) } } : {}),
  };
}

/** The summary as a face shows it: every text of ours worded (the extension's scorecard), nothing else changed. */
export function auditWorded(s: AuditSummary, wording: Wording = englishWording): AuditSummary {
  return {
    ...s,
    results: s.results.map((r) => auditResultWorded(r, wording)),
    inYourCode: (s.inYourCode ?? []).map((c) => checkWorded(c, wording)),
  };
}
