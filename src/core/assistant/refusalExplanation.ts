// Why a delivery was refused, step by step, in words a developer can act on: each of the seven verification steps
// (spec: Authentication 6) with what it checks and what it found, and for the step that failed, its likely causes
// and what to do. Built from the record's own checks, never from the body of a refused request.
import type { DeliveryRecord } from '../webhooks/deliveryRecord';
import { forwardFailed, forwardsOf } from '../webhooks/forwardAnswer';
import { STEP_NAMES } from '../webhooks/verificationSteps';

interface StepExplained {
  step: number;
  name: string;
  /** What the step checks. */
  checks: string;
  /** passed, failed, or not reached (a step after the one that failed). */
  outcome: 'passed' | 'failed' | 'not reached';
  detail?: string;
}

export interface RefusalExplanation {
  id: string;
  verified: boolean;
  status: number;
  /** One sentence: what happened. */
  summary: string;
  steps: StepExplained[];
  /** For the failed step: what most often causes it. */
  likelyCauses: string[];
  /** What to do, most likely first. */
  whatToDo: string[];
}

const CHECKS: Record<number, string> = {
  1: 'the Authorization header is "Bearer <JWT>": a scheme, then a token of three dot-separated parts',
  2: 'the token decodes, and its iss is an issuer this receiver trusts (an unknown issuer is refused before any key-set request)',
  3: "the token's kid names a key in that issuer's key set (fetched from its jwksUrl, cached, rate-limited)",
  4: 'the signature verifies with that key under RS256 (the token cannot choose another algorithm)',
  5: 'aud is the audience registered for the issuer, exp is present and not passed (60 s tolerance), nbf not in the future',
  6: 'body_sha256 is the SHA-256 of the exact bytes received, compared in constant time; only then is the JSON parsed',
  7: "the answer: 200 (or your app's status with pass-through) for a verified delivery, 403 for a refused one, 5xx with Retry-After when nothing could be decided",
};

interface Advice {
  causes: string[];
  todo: string[];
}

/** Causes and fixes for a failure, by step and by what the step's detail says (lower-cased). */
const ADVICE_BY_STEP: Readonly<Record<number, (d: string) => Advice>> = {
  1: (d) =>
    d.includes('no authorization')
      ? {
          causes: [
            'the request did not come from the service or a signer: a curl or test without the header',
            'a proxy, tunnel or framework in front of the receiver dropped the Authorization header',
          ],
          todo: [
            'send it again signed: wfs_send_event or wfs_replay_to_app sign with the sandbox key',
            'if a proxy sits in front, make it pass Authorization through unchanged',
          ],
        }
      : {
          causes: ['the header has another scheme (Basic, a bare token) or a token that is not three parts'],
          todo: ['send "Authorization: Bearer <JWT>" exactly as the service does; sign with wfs_send_event to compare'],
        },
  2: (d) =>
    d.includes('not trusted')
      ? {
          causes: [
            "the token's issuer is not among those this receiver trusts",
            "in VS Code the Sandbox's issuer is trusted only while the Sandbox is the environment in use",
            'a delivery signed by another environment, or by a sandbox this receiver was not told about',
          ],
          todo: [
            "VS Code: add the issuer, its jwksUrl and audience to the environment's trustedIssuers in the wfs.environments setting, or switch to the environment that sends it",
            'CLI: start the receiver with `wfs listen --trust-sandbox URL`, `--trust-file FILE`, or --issuer/--audience/--jwks-url',
          ],
        }
      : {
          causes: ['the token is not a JWT of canonical base64url parts: something re-encoded or cut it on the way'],
          todo: [
            'compare the Authorization header the sender sends with what arrived (wfs_get_delivery shows its length)',
          ],
        },
  3: (d) => ({
    causes:
      d.includes('not found') || d.includes('no key')
        ? [
            "the key set does not hold the token's kid: the key was rotated, or the sandbox that signed was restarted (each start makes a new key)",
            'two sandboxes with the same issuer name: the token came from the other one',
          ]
        : ['the key set could not be read (the jwksUrl did not answer, or answered something that is not a key set)'],
    todo: [
      'send the delivery again from the sandbox running now (wfs_replay_to_app or wfs_send_event sign with its current key)',
      "check that the issuer's jwksUrl answers: it is named in this step's detail",
    ],
  }),
  4: (d) =>
    d.includes('alg')
      ? {
          causes: ['the token names an algorithm other than RS256: a forgery, or a signer set up wrongly'],
          todo: ['sign with RS256; the receiver never follows the alg a token names'],
        }
      : {
          causes: [
            'the token or its signature was changed on the way',
            'it was signed with another key that carries the same kid',
          ],
          todo: ['send it again signed by the issuer the receiver trusts; do not edit a token by hand'],
        },
  5: (d) => {
    if (d.includes('expired'))
      return {
        causes: [
          'the delivery was replayed or held up longer than its token lives (a resend of an old copy keeps the old token)',
          "this machine's clock is off: every genuine delivery failing by about the same amount points there",
        ],
        todo: [
          're-sign it: wfs_replay_to_app gives it a fresh token',
          'check the clock: `date -u` against a time server',
        ],
      };
    if (d.includes('audience'))
      return {
        causes: ['the token names another audience than the one registered for its issuer'],
        todo: ["set the audience the service registered for you in the issuer's entry (trustedIssuers, or --audience)"],
      };
    return {
      causes: ['a required claim is missing or not a number (exp), or nbf is in the future'],
      todo: ['sign with exp set; check the clocks of this machine and the sender'],
    };
  },
  6: () => ({
    causes: [
      'the body changed after it was signed: re-serialized JSON, pretty-printing, another character set, or a proxy that rewrote it',
      'the body was edited and sent with the token of the original',
      'body_sha256 is missing or not 64 lower-case hex digits',
    ],
    todo: [
      'verify over the raw bytes as received, before any JSON parsing or re-encoding',
      'to send an edited body, re-sign it (wfs_send_event or wfs_replay_to_app of a fixture)',
    ],
  }),
};

function advice(step: number, detail: string): Advice {
  return ADVICE_BY_STEP[step]?.(detail.toLowerCase()) ?? { causes: [], todo: [] };
}

export function explainRefusal(r: DeliveryRecord): RefusalExplanation {
  const failed = r.checks.find((c) => !c.ok && c.step < 7);
  const byStep = new Map(r.checks.map((c) => [c.step, c]));
  const steps: StepExplained[] = [];
  for (let step = 1; step <= 7; step++) {
    const c = byStep.get(step);
    steps.push({
      step,
      name: c?.name ?? STEP_NAMES[step - 1]!,
      checks: CHECKS[step]!,
      outcome: c ? (c.ok ? 'passed' : 'failed') : 'not reached',
      ...(c ? { detail: c.detail } : {}),
    });
  }
  if (failed) {
    const { causes, todo } = advice(failed.step, failed.detail);
    return {
      id: r.id,
      verified: false,
      status: r.status,
      summary: `Refused with ${r.status}: step ${failed.step} (${failed.name}) failed: ${failed.detail}.`,
      steps,
      likelyCauses: causes,
      whatToDo: todo,
    };
  }
  if (!r.verified) {
    // Refused before the steps ran: the path, method, Host, size or the history said no.
    return {
      id: r.id,
      verified: false,
      status: r.status,
      summary: `Answered ${r.status} before verification${r.note ? `: ${r.note}` : ''}.`,
      steps,
      likelyCauses: [
        r.status === 404 ? "the request went to another path than the receiver's (default /webhooks)" : '',
        r.status === 405 ? 'the request was not a POST' : '',
        r.status === 413 ? "the body was larger than the receiver's limit (wfs listen --max-body)" : '',
        r.status === 421 ? 'the Host header named a host the receiver does not answer (DNS rebinding protection)' : '',
        r.status === 503
          ? 'the receiver could not decide now (a key set in cooldown, or its history could not be written); the service sends it again'
          : '',
      ].filter(Boolean),
      whatToDo: ["send it to the receiver's own address (wfs_environment shows it), as a POST"],
    };
  }
  const apps = forwardsOf(r);
  const failing = apps.filter(forwardFailed);
  return {
    id: r.id,
    verified: true,
    status: r.status,
    summary: failing.length
      ? `Not refused: all six checks passed and the receiver answered ${r.status}, but your app answered ${failing.map((f) => f.status ?? f.error).join(', ')}.`
      : `Not refused: all six checks passed and the receiver answered ${r.status}.`,
    steps,
    likelyCauses: failing.length
      ? ["your app's handler failed on this delivery: its answer is in wfs_get_delivery (appAnswers)"]
      : [],
    whatToDo: failing.length
      ? ["read the app's answer with wfs_get_delivery, fix the handler, then wfs_replay_to_app to send it again"]
      : [],
  };
}
