package io.kovn.controller.zone;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/** JSON text of merge patches. */
public final class JsonPatches {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonPatches() {}

    /** The compact JSON of a patch built from maps. */
    public static String json(Object patch) {
        try {
            return MAPPER.writeValueAsString(patch);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
