// `wfs sign-in`: checks the credentials against the service and says how long the tokens last; stores nothing.
import { EXIT } from '../exitCodes';
import { readServiceTarget, signIn } from '../cliEnvironment';
import { SERVICE_ENV, type CommandSpec } from '../commandSpec';

export const signInCommand: CommandSpec = {
  name: 'sign-in',
  synopsis: 'sign-in',
  description: [
    'Signs in to WFS_BASE_URL with WFS_USERNAME and WFS_PASSWORD and prints',
    '{"event":"signed-in","origin":…,"username":…,"accessExpiresAt":…,"accessExpiresInSeconds":…,"refreshExpiresAt":…}.',
    'No token is printed or stored: every command signs in for itself. A refused sign-in is exit 1, with what to check.',
  ].join('\n'),
  flags: {},
  env: SERVICE_ENV,
  async run(_flags, io) {
    const target = readServiceTarget(io.env);
    const env = await signIn(target, io);
    try {
      const session = env.tokens.current;
      const now = env.clock.now();
      io.emit({
        event: 'signed-in',
        origin: new URL(env.baseUrl).origin,
        username: target.credentials.username,
        ...(session
          ? {
              accessExpiresAt: new Date(session.accessExpiresAt).toISOString(),
              accessExpiresInSeconds: Math.round((session.accessExpiresAt - now) / 1000),
              refreshExpiresAt: new Date(session.refreshExpiresAt).toISOString(),
            }
          : {}),
      });
      return EXIT.ok;
    } finally {
      env.tokens.dispose();
    }
  },
};
