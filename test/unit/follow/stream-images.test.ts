import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { cannedDocumentClient } from '../../support/canned-document-client';
import { ExactNumber } from '../../../src/core/exact-number';
import { changeOfRecord } from '../../../src/store/stream-records';

describe('stream images', () => {
  const record = {
    eventName: 'INSERT',
    dynamodb: {
      Keys: { id: { N: '12345678901234567890' } },
      NewImage: { id: { N: '12345678901234567890' }, year: { N: '1975.50' }, title: { S: 'Rubycon' } },
      SequenceNumber: '1',
    },
  };

  it('read numbers exactly, as every door does, also once the document client has sent calls', async () => {
    // The document client's commands set options of their own on the options it holds: never on the streams'.
    await cannedDocumentClient().doc.send(new GetCommand({ TableName: 't', Key: { id: 1 } }));
    const change = changeOfRecord(record, 't');
    expect(change.key).toEqual({ id: new ExactNumber('12345678901234567890') });
    expect(change.image).toEqual({
      id: new ExactNumber('12345678901234567890'),
      year: new ExactNumber('1975.50'),
      title: 'Rubycon',
    });
  });
});
