import { BuyerEditorPage } from './buyer-editor-page';
import { BuyersListPage } from './buyers-list-page';

// The lead buyers' screens (issue 34), loaded on their own (lazily, by the lead pages' route component)
// only when one is opened: the list (/admin/buyers) and the editor (/admin/buyers/new, /admin/buyers/{id}).

export function BuyerPages({ path }: { path: string }) {
  const segment = path.split('/')[3];
  if (!segment) return <BuyersListPage />;
  let id = segment;
  try {
    id = decodeURIComponent(segment);
  } catch {
    // Malformed escapes: the editor says there is no such buyer.
  }
  // Keyed: another buyer's page starts from its own state.
  return <BuyerEditorPage key={id} id={id === 'new' ? null : id} />;
}
