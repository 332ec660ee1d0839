import ChatRuntime
import ChatWire
import Foundation

// A line from an older client: `user_id` for `userId`, and a key this version does not
// know, which the app keeps and forwards.
let line = #"""
  {"kind":"post","id":"1","from":{"user_id":"u1"},"body":{"text":"hi","mood":"happy","attachment":{"url":"x"}}}
  """#
let message = try WireDecoder().decode(ChatMessage.self, from: Data(line.utf8))
guard message.from.userId == "u1" else { fatalError("alias not decoded") }
switch message.body {
case .post(let post):
  guard post.mood == .happy, post.additionalProperties["attachment"] != nil else {
    fatalError("post not decoded: \(post)")
  }
case .getHistory, .reply, .unknown:
  fatalError("wrong case: \(message.body.tag)")
}
let encoded = try JSONEncoder().encode(message)
let text = String(decoding: encoded, as: UTF8.self)
guard text.contains("attachment"), text.contains("\"userId\"") else {
  fatalError("re-encoding lost data: \(text)")
}
// A field given twice: serde refuses it, and so does WireDecoder (JSONDecoder keeps one).
let twice = #"{"kind":"get_history","id":"2","id":"3","from":{"userId":"u1"},"body":{}}"#
do {
  _ = try WireDecoder().decode(ChatMessage.self, from: Data(twice.utf8))
  fatalError("a field given twice was accepted")
} catch DecodingError.dataCorrupted(let context) {
  guard context.debugDescription == "duplicate key `id`" else {
    fatalError("wrong error for a field given twice: \(context)")
  }
}
print("app ok")
