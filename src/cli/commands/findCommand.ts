// `wfs find`: Find Workflows by correlationId, the way to resolve a start whose outcome is unknown (exit 3).
import { findByCorrelationId, findWorkflowsUrl, MAX_CORRELATION_ID } from '../../core/workflows';
import { EXIT } from '../exitCodes';
import { readServiceTarget, signIn, workflowClient } from '../cliEnvironment';
import { SERVICE_ENV, type CommandSpec } from '../commandSpec';
import { requiredFlag, UsageError } from '../flags';

export const findCommand: CommandSpec = {
  name: 'find',
  synopsis: 'find --correlation-id C',
  description: [
    'Searches Find Workflows by correlationId and prints {"event":"found","correlationId":…,"workflows":[…]} (exit 0),',
    'or {"event":"none","correlationId":…} (exit 5) when the service holds none. After a start answered 500 (exit 3),',
    'run this with the correlationId from the error line: start another only if none is found.',
    'A correlationId copied with its quotes or spaces ("wfs-…", from a JSON line) is searched again without them;',
    'what that finds is printed with "typed" and a note (exit 0), so "none" never comes from a stray quote.',
    "The service's Find Workflows is not documented; by default this uses the sandbox's",
    'GET {base}/workflow-services-ws/resources/v1/workflows?correlationId=C. WFS_FIND_WORKFLOWS_URL points it elsewhere.',
  ].join('\n'),
  flags: {
    'correlation-id': {
      type: 'string',
      value: 'C',
      description: 'the correlationId the start sent (required)',
      required: true,
    },
  },
  env: [
    ...SERVICE_ENV,
    ['WFS_FIND_WORKFLOWS_URL', "Find Workflows address with {correlationId}, on WFS_BASE_URL's origin"],
  ],
  exits: [[EXIT.noneFound, 'no workflow has this correlationId']],
  async run(flags, io) {
    const correlationId = requiredFlag(flags, 'correlation-id');
    const target = readServiceTarget(io.env);
    const template = io.env.WFS_FIND_WORKFLOWS_URL || undefined;
    try {
      findWorkflowsUrl(target.baseUrl, correlationId, template); // refused before the sign-in when it is wrong
    } catch (err) {
      throw new UsageError(`WFS_FIND_WORKFLOWS_URL: ${(err as Error).message}`);
    }
    const env = await signIn(target, io);
    try {
      const client = workflowClient(env, template);
      // Copied with its quotes or spaces, the typed form finds nothing: "none" would say to start again, and bill
      // twice.
      const { found, searched, copied } = await findByCorrelationId((id) => client.find(id), correlationId);
      if (found.length > 0) {
        const asCopied =
          searched === correlationId
            ? {}
            : {
                typed: correlationId,
                note: `none carries the correlationId as typed, ${JSON.stringify(correlationId)}; these carry ${JSON.stringify(searched)}, without the quotes or spaces copying added`,
              };
        io.emit({ event: 'found', correlationId: searched, ...asCopied, workflows: found });
        return EXIT.ok;
      }
      io.emit({
        event: 'none',
        correlationId,
        ...(copied !== undefined ? { alsoSearched: copied } : {}),
        ...(correlationId.length > MAX_CORRELATION_ID
          ? {
              note: `a correlationId has at most ${MAX_CORRELATION_ID} characters and this one has ${correlationId.length}: no start could have sent it; check that it was copied whole and alone`,
            }
          : {}),
      });
      return EXIT.noneFound;
    } finally {
      env.tokens.dispose();
    }
  },
};
