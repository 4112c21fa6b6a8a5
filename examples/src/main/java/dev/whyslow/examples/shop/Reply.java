package dev.whyslow.examples.shop;

/**
 * What a request kind answers: the HTTP status, a JSON body and the work it took.
 *
 * @param status HTTP status code
 * @param json the response body, a JSON document
 * @param workSteps steps counted by the request's {@link Work}
 */
record Reply(int status, String json, long workSteps) {
  static Reply ok(String json, Work work) {
    return new Reply(200, json, work.steps());
  }
}
