import { signInSchema } from '@uf/shared/admin.schema';
import { signIn, signOut } from '../services/admin-auth.service';
import { enrollingAdminProcedure, publicProcedure, restAt, router } from './trpc';

export function createAdminAuthRouter() {
  return router({
    login: publicProcedure
      .meta(restAt('POST', '/api/admin/login'))
      .input(signInSchema)
      .mutation(({ ctx, input }) =>
        signIn(
          {
            em: ctx.services.em(),
            pool: ctx.services.db.pool,
            req: ctx.req,
            reply: ctx.reply,
            scryptLogN: ctx.config.adminPasswordScryptLogN,
            requireTwoFactor: ctx.config.adminRequireTwoFactor,
            perClientLimit: ctx.config.adminSignInLimitPerAddress,
          },
          input,
        ),
      ),
    logout: publicProcedure
      .meta(restAt('POST', '/api/admin/logout'))
      .mutation(({ ctx }) => signOut(ctx.req, ctx.services.db.pool)),
    me: enrollingAdminProcedure
      .meta(restAt('GET', '/api/admin/me'))
      .query(({ ctx }) => ({ username: ctx.admin.username })),
  });
}
