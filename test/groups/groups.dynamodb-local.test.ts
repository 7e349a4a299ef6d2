import { groupsSuite } from './groups.case';

groupsSuite('dynamodbLocal');
