// The sandbox profile a probe writes (--profile-out): what the service did where the spec is silent, as names and
// shapes (sandboxProfile.ts reads it). Observations that differ from the spec are written as seen; the sandbox's
// loader leaves them out and says so.
import {
  PROFILE_FORMAT,
  PROFILE_VERSION,
  type ResponseTemplate,
  type SandboxProfileFile,
} from '../sandbox/sandboxProfile';
import type { Observation, ProbeReport, RowResult } from './probeTypes';

function template(o: Observation): ResponseTemplate {
  const t: ResponseTemplate = { status: o.status, contentType: o.contentType, bodyKind: o.bodyKind };
  if (o.fields) t.fields = o.fields;
  if (o.messageCodes) t.messageCodes = o.messageCodes;
  if (o.problemType && o.problemType !== 'about:blank')
    t.problemTypeName = o.problemType.slice(o.problemType.lastIndexOf('/') + 1);
  if (o.errorCode) t.errorCode = o.errorCode;
  return t;
}

export function probeProfile(r: ProbeReport): SandboxProfileFile {
  const row = (id: string): RowResult | undefined => r.rows.find((x) => x.id === id && x.service);
  const p: SandboxProfileFile = {
    format: PROFILE_FORMAT,
    version: PROFILE_VERSION,
    observedAt: r.at,
    origin: r.origins.service,
  };
  const refusal = row('sign-in-refusal');
  if (refusal?.service) p.signInRefusal = template(refusal.service);
  const refreshRefusal = row('refresh-refusal');
  if (refreshRefusal?.service) p.refreshRefusal = template(refreshRefusal.service);
  const refresh = row('refresh');
  if (typeof refresh?.service?.facts?.refreshTokenRotated === 'boolean')
    p.refresh = { rotatesRefreshToken: refresh.service.facts.refreshTokenRotated };
  const access = row('access-token')?.service?.jwt;
  if (access) p.accessToken = { header: access.header, claims: access.claims };
  const delivery = row('webhook-headers')?.service;
  if (delivery) {
    const jwt = delivery.jwt;
    p.testWebhook = {
      headers: (delivery.facts?.headers as string[] | undefined) ?? [],
      ...(jwt
        ? {
            token: {
              header: jwt.header,
              claims: jwt.claims,
              ...(jwt.lifetimeSeconds !== undefined ? { lifetimeSeconds: jwt.lifetimeSeconds } : {}),
            },
          }
        : {}),
    };
  }
  return p;
}
