import { defineConsumedCapacitySuite } from './consumed-capacity.case';

defineConsumedCapacitySuite('dynamodbLocal', true);
