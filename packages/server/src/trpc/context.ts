import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config';
import type { Services } from '../services';

export type Context = {
  req: FastifyRequest;
  reply: FastifyReply;
  config: AppConfig;
  services: Services;
};

export function createContextFactory(config: AppConfig, services: Services) {
  return ({ req, res }: { req: FastifyRequest; res: FastifyReply }): Context => ({
    req,
    reply: res,
    config,
    services,
  });
}
