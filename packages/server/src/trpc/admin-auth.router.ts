import { meOutputSchema, signInOutputSchema } from '@uf/shared/admin.output';
import { signInSchema } from '@uf/shared/admin.schema';
import { okSchema } from '@uf/shared/output-fields';
import { signIn, signOut } from '../admin/admin-auth.service';
import { applyOutcome } from './outcome';
import { enrollingAdminProcedure, publicProcedure, restAt, router } from './trpc';

export function createAdminAuthRouter() {
  return router({
    login: publicProcedure
      .meta(restAt('POST', '/api/admin/login'))
      .input(signInSchema)
      .output(signInOutputSchema)
      .mutation(async ({ ctx, input }) => {
        const outcome = await signIn(
          {
            em: ctx.services.em(),
            pool: ctx.services.db.pool,
            client: { ip: ctx.req.ip, userAgent: ctx.req.headers['user-agent'] },
            scryptLogN: ctx.config.adminPasswordScryptLogN,
            requireTwoFactor: ctx.config.adminRequireTwoFactor,
            perClientLimit: ctx.config.adminSignInLimitPerAddress,
            secondFactorAlert: (locked) => ctx.services.emailReports.alerts.secondFactorLocked(locked),
          },
          input,
        );
        return applyOutcome(ctx.req, outcome);
      }),
    logout: publicProcedure
      .meta(restAt('POST', '/api/admin/logout'))
      .output(okSchema)
      .mutation(async ({ ctx }) => {
        const who = { username: ctx.req.session?.username, ip: ctx.req.ip };
        return applyOutcome(ctx.req, await signOut(ctx.services.db.pool, who));
      }),
    me: enrollingAdminProcedure
      .meta(restAt('GET', '/api/admin/me'))
      .output(meOutputSchema)
      .query(({ ctx }) => ({ username: ctx.admin.username })),
  });
}
