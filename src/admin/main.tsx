import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import './styles.css';

/** The inbox's data cache (TanStack Query): a view's data is fresh for 10 s, and a failed read is not retried (the view says so). */
const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 10_000, retry: false } } });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
