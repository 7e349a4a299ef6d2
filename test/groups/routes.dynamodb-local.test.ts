import { groupRoutesSuite } from './routes.case';

groupRoutesSuite('dynamodbLocal');
