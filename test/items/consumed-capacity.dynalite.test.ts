import { defineConsumedCapacitySuite } from './consumed-capacity.case';

// dynalite reports the table's units, not the index's.
defineConsumedCapacitySuite('dynalite', false);
