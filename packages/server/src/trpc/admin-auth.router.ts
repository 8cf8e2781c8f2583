import { signInSchema } from '@uf/shared/admin.schema';
import { signIn, signOut } from '../services/admin-auth.service';
import { enrollingAdminProcedure, publicProcedure, router } from './trpc';

export function createAdminAuthRouter() {
  return router({
    login: publicProcedure.input(signInSchema).mutation(({ ctx, input }) =>
      signIn(
        {
          em: ctx.services.em(),
          pool: ctx.services.db.pool,
          req: ctx.req,
          reply: ctx.reply,
          scryptLogN: ctx.config.adminPasswordScryptLogN,
          requireTwoFactor: ctx.config.adminRequireTwoFactor,
        },
        input,
      ),
    ),
    logout: publicProcedure.mutation(({ ctx }) => signOut(ctx.req, ctx.services.db.pool)),
    me: enrollingAdminProcedure.query(({ ctx }) => ({ username: ctx.admin.username })),
  });
}
