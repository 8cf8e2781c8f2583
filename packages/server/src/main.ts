import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { carryOverLegacyData, startConfiguredDatabase } from './db/connect';
import { INITIAL_ADMIN_LOCK_KEY, withAdvisoryLock } from './db/database';
import { ensureInitialAdmin, type InitialAdmin } from './services/admin-user.service';

// The server entry: the only place that listens and handles process signals.

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  if (!config.databaseUrl) {
    console.info(`[server] no DATABASE_URL: using the embedded PostgreSQL in ${config.dataDir}`);
  }
  const { url: databaseUrl, embedded } = await startConfiguredDatabase(config);

  let app: FastifyInstance;
  try {
    app = await buildApp(config, { databaseUrl, embedded });
  } catch (err) {
    await embedded?.close();
    throw err;
  }

  if (embedded) {
    try {
      await carryOverLegacyData(config, app.db);
    } catch (err) {
      await app.close();
      await embedded.close();
      throw err;
    }
  }

  // Replicas starting together would each find no admin and each create one: take turns.
  const initialAdmin = await withAdvisoryLock(app.db, INITIAL_ADMIN_LOCK_KEY, () =>
    ensureInitialAdmin(app.db.orm.em.fork(), {
      username: config.adminUsername,
      password: config.adminPassword,
      allowGenerated: !config.databaseUrl,
    }),
  );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 15_000);
    force.unref();
    // Closing reaps idle keep-alive connections once. A connection whose request was still running
    // turns idle only after its response, and would otherwise hold the shutdown open until its
    // keep-alive timeout: close such connections as soon as they are done.
    const reaper = setInterval(() => app.server.closeIdleConnections(), 100);
    reaper.unref();
    try {
      await app.close();
      await embedded?.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // The banner comes last, after the start-up log lines still queued.
  app.flushLogs();
  console.info(
    `\n  Site:  http://${shownHost}:${port}/\n  Admin: http://${shownHost}:${port}/admin/login\n  ${signInHint(initialAdmin)}\n`,
  );
}

function signInHint(admin: InitialAdmin): string {
  const cli = 'npm run cli --';
  switch (admin.status) {
    case 'created':
      return admin.generatedPassword
        ? `Sign in as '${admin.username}' with password '${admin.generatedPassword}' (shown only now; ` +
            `change it with: ${cli} admin:reset-password ${admin.username})`
        : `Sign in as '${admin.username}' with the password in ADMIN_PASSWORD.`;
    case 'exists':
      // Said plainly: ADMIN_PASSWORD only ever creates the first account; changing it later changes nothing.
      return (
        'Sign in with an admin account already in the database, with the password it was given when it ' +
        `was created (ADMIN_PASSWORD then, or the one printed at first start; ADMIN_PASSWORD does not ` +
        `change it now). Forgot it? Stop the server, then: ${cli} admin:reset-password <username>`
      );
    case 'missing':
      return `No admin account yet: set ADMIN_USERNAME and ADMIN_PASSWORD, or run: ${cli} admin:create <username>`;
  }
}

main().catch((err) => {
  console.error('[server] failed to start:', err);
  process.exit(1);
});
