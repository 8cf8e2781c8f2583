// The admin area is client-rendered and uses much of Mantine: it loads the whole stylesheet with its
// layout (the public pages' blocking sheet holds only what they show, ADR 053).
import '@mantine/core/styles.layer.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet, useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { createQueryClient, createTrpcClient, trpc } from '../../trpc';
import { sessionGuard } from './session-guard';

/** Layout of every /admin route: React Query + typed tRPC hooks, loaded only when an admin page opens;
 * the page inside a <main> landmark. */
export function AdminProviders() {
  const router = useRouter();
  const [queryClient] = useState(() => createQueryClient(sessionGuard(router)));
  const [trpcClient] = useState(createTrpcClient);
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        {/* Every admin screen is the page's main content (one landmark that holds it all). */}
        <main>
          <Outlet />
        </main>
      </QueryClientProvider>
    </trpc.Provider>
  );
}
