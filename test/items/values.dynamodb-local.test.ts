import { defineValuesSuite } from './values.case';

defineValuesSuite('dynamodbLocal');
