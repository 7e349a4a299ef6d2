import { withProfileCollections } from '../../devtools/parts-entities';
import { demoConfig } from '../support/service';

export { profile } from '../../devtools/parts-entities';

/** The demo config with `profiles`, a collection whose entities are kept in parts. */
export function partsConfig(): unknown {
  return withProfileCollections(demoConfig());
}
