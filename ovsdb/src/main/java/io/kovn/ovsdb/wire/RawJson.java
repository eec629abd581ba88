package io.kovn.ovsdb.wire;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;

/**
 * One JSON value of a received message, not parsed yet: its bytes within the message. Large values (monitor updates,
 * transaction results) are read straight from a streaming parser by {@link #read}, without the intermediate tree of
 * {@link #tree}. Meant for the thread that received the message.
 */
public final class RawJson {
    /**
     * Parsers for received messages. Field names are not interned: the row uuids that key a monitor update are all
     * different, and the JVM's string table need not hold them. (They stay canonicalised: without that Jackson parses
     * bytes through a character reader.)
     */
    private static final JsonFactory READ = JsonFactory.builder()
            .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
            .build();

    private final byte[] bytes;
    private final int offset;
    private int length; // to the end of bytes while a member is being visited (see forEachMember)
    private JsonNode tree;
    private JsonParser live; // the message's own parser, on this value's first token, until read once
    private IOException malformed; // found while reading from the message's parser

    private RawJson(byte[] bytes, int offset, int length, JsonNode tree) {
        this.bytes = bytes;
        this.offset = offset;
        this.length = length;
        this.tree = tree;
    }

    /** The value held by {@code length} bytes from {@code offset} (not copied: the caller keeps them unchanged). */
    public static RawJson of(byte[] bytes, int offset, int length) {
        return new RawJson(bytes, offset, length, null);
    }

    /** A value that is already a tree (read as a stream by walking the tree). */
    public static RawJson of(JsonNode tree) {
        return new RawJson(null, 0, 0, tree);
    }

    /** Reads a value from a streaming parser. */
    @FunctionalInterface
    public interface Reader<T> {
        /** @param p positioned on the value's first token; may be left anywhere inside the value, never after it */
        T read(JsonParser p) throws IOException;
    }

    /** Reads the value with {@code reader}; malformed JSON becomes a {@link ProtocolException}. */
    public <T> T read(Reader<T> reader) {
        if (live != null) {
            JsonParser p = live;
            live = null; // a second read parses the bytes again
            try {
                return reader.read(p);
            } catch (IOException e) {
                malformed = e;
                throw new ProtocolException("malformed JSON: " + e.getMessage(), e);
            }
        }
        try (JsonParser p = bytes != null ? READ.createParser(bytes, offset, length) : tree.traverse()) {
            p.nextToken();
            return reader.read(p);
        } catch (IOException e) {
            throw new ProtocolException("malformed JSON: " + e.getMessage(), e);
        }
    }

    /** The value as a tree, parsed on first use. */
    public JsonNode tree() {
        if (tree == null) {
            tree = read(Json.MAPPER::readTree);
        }
        return tree;
    }

    /** Receives the members of a message in order. */
    @FunctionalInterface
    public interface MemberVisitor {
        void member(String name, RawJson value);
    }

    /**
     * Visits the members of the JSON object in {@code message}, in one pass: a member value read during its visit is
     * read from the message's own parser, so a value of megabytes is parsed once; read later, it is parsed from its
     * bytes. Every byte is checked to be well-formed JSON (a syntax error found by a visitor's read fails this method
     * too).
     *
     * @throws ProtocolException when the message is malformed or not an object
     */
    public static void forEachMember(byte[] message, MemberVisitor visitor) {
        try (JsonParser p = READ.createParser(message)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new ProtocolException("JSON-RPC message is not an object");
            }
            JsonStreamContext object = p.getParsingContext();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                int start = (int) p.currentTokenLocation().getByteOffset();
                if (t.isScalarValue()) {
                    p.finishToken(); // a string is read lazily: its end is not known yet
                    visitor.member(name, of(message, start, end(p) - start));
                    continue;
                }
                // a container: until it has been skipped its end is unknown, but a parser of the
                // bytes from its start stops at its end
                RawJson value = new RawJson(message, start, message.length - start, null);
                value.live = p;
                visitor.member(name, value);
                value.live = null;
                if (value.malformed != null) {
                    throw value.malformed;
                }
                ValueReader.skipRest(p, object);
                value.length = end(p) - start;
            }
            if (p.nextToken() != null) {
                throw new ProtocolException("more than one JSON value in a message");
            }
        } catch (IOException e) {
            throw new ProtocolException("malformed JSON: " + e.getMessage(), e);
        }
    }

    private static int end(JsonParser p) {
        return (int) p.currentLocation().getByteOffset();
    }

    @Override
    public String toString() {
        return Json.text(tree());
    }
}
