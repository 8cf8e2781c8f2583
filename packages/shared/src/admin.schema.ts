import { z } from 'zod';
import { LOGIN_MESSAGES } from './messages';

export const loginSchema = z.object({
  username: z
    .string({ error: LOGIN_MESSAGES.usernameRequired })
    .trim()
    .min(1, LOGIN_MESSAGES.usernameRequired)
    .max(100, 'Username is too long'),
  password: z
    .string({ error: LOGIN_MESSAGES.passwordRequired })
    .min(1, LOGIN_MESSAGES.passwordRequired)
    .max(200, 'Password is too long'),
});
export type LoginInput = z.infer<typeof loginSchema>;
