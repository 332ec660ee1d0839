"""The team's Python worker, against the generated package installed with pip: a line
from an older client (`user_id` for `userId`, an input alias for a priority, a key this
version does not know) decodes, matches and re-encodes without losing data."""

from chat_protocol import UnknownVariant, chat

line = (
    '{"kind":"post","id":"1","from":{"user_id":"u1"},'
    '"body":{"text":"hi","mood":"happy","priority":"URGENT","attachment":{"url":"x"}}}'
)
message = chat.decode_chat_message(line)
assert message.from_.user_id == "u1", message
match message:
    case chat.ChatMessagePost(body=post):
        assert post.mood == "happy" and post.priority == "high", post
        assert post.model_extra == {"attachment": {"url": "x"}}, post.model_extra
    case UnknownVariant():
        raise AssertionError("a post decoded as unknown")
    case _:
        raise AssertionError(f"wrong case: {message!r}")
text = chat.encode_chat_message(message)
assert '"attachment":{"url":"x"}' in text and '"userId":"u1"' in text, text
assert '"priority":"high"' in text, text

request = chat.ChatMessageGetHistory(id="2", from_=chat.User(user_id="u1"))
history = request.decode_reply({"posts": [{"text": "a", "mood": "sad"}]})
assert history.posts[0].text == "a", history

presence = chat.decode_presence('{"state":"away","minutes":5}')
assert isinstance(presence, chat.PresenceAway) and presence.minutes == 5, presence
print("app ok")
