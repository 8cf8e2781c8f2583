import type { FastifyInstance } from 'fastify';
import { ensureInitialAdmin, type InitialAdmin } from './admin/admin-user.service';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { carryOverLegacyData, startConfiguredDatabase } from './db/connect';
import { INITIAL_ADMIN_LOCK_KEY, withAdvisoryLock } from './db/database';

// The server entry: the only place that listens and handles process signals.

/** After SIGTERM, how long the listener stays open answering 503 before the server closes. */
const DRAIN_GRACE_MS = 1_000;

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
      scryptLogN: config.adminPasswordScryptLogN,
    }),
  );

  // Graceful stop (ADR 044, ADR 056). 1) Drain: every new request is answered 503 (app format,
  // Retry-After) and every answer says `Connection: close`, so keep-alive connections end after their
  // current answer; for a moment the listener stays open, so a request racing the signal on an idle
  // keep-alive connection gets that 503 instead of a reset. 2) Close: stop listening, close connections
  // still idle, let requests in flight finish — at most SHUTDOWN_TIMEOUT_SECONDS after the signal, then
  // their connections are closed — flush the group commits, close the pools. 3) Stop the embedded
  // PostgreSQL, exit.
  let closing = false;
  const shutdown = async (reason: string, exitCode = 0) => {
    if (closing) return;
    closing = true;
    app.log.info({ reason }, 'shutting down: refusing new requests, finishing in-flight ones');
    const hardStop = setTimeout(
      () => {
        app.log.error('shutdown took too long; exiting');
        app.flushLogs();
        process.exit(1);
      },
      (config.shutdownTimeoutSeconds + 10) * 1000,
    );
    hardStop.unref();
    app.startDraining();
    await new Promise((r) => setTimeout(r, DRAIN_GRACE_MS));
    const reaper = setInterval(() => app.server.closeIdleConnections(), 100);
    reaper.unref();
    const bound = setTimeout(
      () => {
        app.log.warn('requests still running at the shutdown limit: closing their connections');
        app.server.closeAllConnections();
      },
      Math.max(0, config.shutdownTimeoutSeconds * 1000 - DRAIN_GRACE_MS),
    );
    bound.unref();
    try {
      await app.close();
      await embedded?.close();
      process.exit(exitCode);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      app.flushLogs();
      process.exit(1);
    }
  };
  // The embedded PostgreSQL's supervisor (ADR 056): its state is what /healthz and /readyz report; a
  // server it cannot bring back ends this process non-zero, for a supervisor of ours to take over.
  if (embedded) {
    app.db.health.embeddedState = embedded.state;
    embedded.onStateChange((state, detail) => {
      app.db.health.embeddedState = state;
      if (state === 'restarting') app.log.error({ embeddedDatabase: state }, detail);
      else if (state === 'running')
        app.log.warn({ embeddedDatabase: state }, `embedded PostgreSQL ${detail}`);
      else {
        app.log.fatal({ embeddedDatabase: state }, `embedded PostgreSQL failed: ${detail}; exiting`);
        void shutdown('embedded PostgreSQL failed', 1);
      }
    });
  }
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
