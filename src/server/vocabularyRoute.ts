import { jsonAnswer, type Answer } from './Answer.js';
import { errorBody } from '../contract/statusBodies.js';
import { vocabularyAnswer } from './vocabularyResource.js';

/**
 * The vocabulary endpoint (`<vocabPath>/<term>`): the representation of a
 * term that the `Accept` header asks for, read from the files of `vocabDir`;
 * 404 for an unknown term, 406 (listing the types there are) for an
 * unavailable type. Every answer varies with `Accept`.
 */
export function vocabularyRoute(vocabDir: string): (term: string, accept: string | undefined) => Answer {
  return (term, accept) => {
    const answer = vocabularyAnswer(vocabDir, term, accept);
    if (answer.status === 'not-found') {
      return jsonAnswer(404, errorBody('Not found', 'Not Found', `No vocabulary term '${term}'.`), { Vary: 'Accept' });
    }
    if (answer.status === 'not-acceptable') {
      return jsonAnswer(
        406,
        JSON.stringify({
          status: 'Fail',
          message: `Not Acceptable: available types are ${answer.available.join(', ')}`,
          available: answer.available,
        }),
        { Vary: 'Accept' },
      );
    }
    return { status: 200, body: answer.body, contentType: answer.mediaType, headers: { Vary: 'Accept' } };
  };
}
