import { loginSchema } from '@uf/shared/admin.schema';
import { signIn, signOut } from '../services/admin-auth.service';
import { adminProcedure, publicProcedure, router } from './trpc';

export function createAdminAuthRouter() {
  return router({
    login: publicProcedure
      .input(loginSchema)
      .mutation(({ ctx, input }) =>
        signIn({ em: ctx.services.em(), pool: ctx.services.db.pool, req: ctx.req, reply: ctx.reply }, input),
      ),
    logout: publicProcedure.mutation(({ ctx }) => signOut(ctx.req, ctx.services.db.pool)),
    me: adminProcedure.query(({ ctx }) => ({ username: ctx.admin.username })),
  });
}
