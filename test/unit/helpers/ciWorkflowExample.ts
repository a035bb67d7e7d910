// docs/ci-workflow.yml as the tests read it: the steps of its one job, in order (docs/ci.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './composeExample';
import { parseYaml, type YamlValue } from './miniYaml';

export const CI_WORKFLOW_FILE = 'docs/ci-workflow.yml';

export interface WorkflowStep {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with: Record<string, string>;
}

export function workflowSteps(text = readFileSync(join(REPO_ROOT, CI_WORKFLOW_FILE), 'utf8')): WorkflowStep[] {
  const doc = parseYaml(text) as { jobs?: Record<string, { steps?: YamlValue }> };
  const jobs = Object.values(doc?.jobs ?? {});
  if (jobs.length !== 1 || !Array.isArray(jobs[0]!.steps)) throw new Error(`${CI_WORKFLOW_FILE}: one job with steps`);
  return (jobs[0]!.steps as { [k: string]: YamlValue }[]).map((s) => ({
    name: typeof s.name === 'string' ? s.name : undefined,
    uses: typeof s.uses === 'string' ? s.uses : undefined,
    run: typeof s.run === 'string' ? s.run : undefined,
    if: typeof s.if === 'string' ? s.if : undefined,
    with: (s.with ?? {}) as Record<string, string>,
  }));
}
