import { reshardCliSuite } from './cli.case';

reshardCliSuite('dynamodbLocal');
