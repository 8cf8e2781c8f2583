import { initTRPC } from '@trpc/server';
import { toErrorResponse } from '../errors';
import type { Context } from './context';

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    // Clients get the same { error, message, fieldErrors } body the REST surface answers.
    const { status, body } = toErrorResponse(error);
    return {
      ...shape,
      message: body.message,
      data: { ...shape.data, httpStatus: status, stack: undefined, app: body },
    };
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;
