import { groupReshardSuite } from './reshard.case';

groupReshardSuite('dynamodbLocal');
