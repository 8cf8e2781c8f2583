import { useEffect } from 'react';

const SITE_NAME = 'Unclaimed Funds Finder';

/** Sets the document title and meta description of the current page. */
export function usePageMeta({ title, description }: { title: string; description: string }) {
  useEffect(() => {
    document.title = title === SITE_NAME ? title : `${title} | ${SITE_NAME}`;
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.appendChild(meta);
    }
    meta.content = description;
  }, [title, description]);
}
