package io.kovn.ovn.ids;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.TreeMap;

/**
 * The one identity of an OVN row kovn owns: owner controller, owner type, the owner's name and further key values in
 * key order. Everything else is derived from it: the external_ids, the primary id
 * {@code <controller>:<type>:<name>[:<value>...]}, the hashed port group / address set name and readable ACL names.
 *
 * <p>Immutable; {@link #with} returns a new id with one more key.
 *
 * @param ownerController value of {@code k8s.ovn.org/owner-controller}
 * @param ownerType value of {@code k8s.ovn.org/owner-type}
 * @param name value of {@code k8s.ovn.org/name}, the first key of the id
 * @param keys further keys in id order (key → value), also written as plain external_ids
 */
public record ObjectId(String ownerController, OwnerType ownerType, String name, SequencedMap<String, String> keys) {

    /** The default network's controller name. */
    public static final String DEFAULT_CONTROLLER = "default-network-controller";

    public static final String OWNER_CONTROLLER_KEY = "k8s.ovn.org/owner-controller";
    public static final String OWNER_TYPE_KEY = "k8s.ovn.org/owner-type";
    public static final String NAME_KEY = "k8s.ovn.org/name";
    public static final String ID_KEY = "k8s.ovn.org/id";
    /**
     * The column that holds these keys, named alike in every table kovn owns rows in: for code that reads rows of any
     * of them (a row of a known table reads its generated constant, e.g. {@code Acl.EXTERNAL_IDS}).
     */
    public static final String EXTERNAL_IDS_COLUMN = "external_ids";

    public ObjectId {
        Objects.requireNonNull(ownerController, "ownerController");
        Objects.requireNonNull(ownerType, "ownerType");
        Objects.requireNonNull(name, "name");
        keys = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(keys));
    }

    /** An id owned by the default network's controller. */
    public static ObjectId of(OwnerType ownerType, String name) {
        return new ObjectId(DEFAULT_CONTROLLER, ownerType, name, new LinkedHashMap<>());
    }

    /** An id owned by {@code ownerController}. */
    public static ObjectId of(String ownerController, OwnerType ownerType, String name) {
        return new ObjectId(ownerController, ownerType, name, new LinkedHashMap<>());
    }

    /** This id with one more key appended (key order is id order). */
    public ObjectId with(IdKey key, Object value) {
        return with(key.key(), value);
    }

    /** This id with one more key appended; for feature-specific keys not in {@link IdKey}. */
    public ObjectId with(String key, Object value) {
        if (keys.containsKey(key) || key.startsWith("k8s.ovn.org/")) {
            throw new IllegalArgumentException("duplicate or reserved id key " + key);
        }
        LinkedHashMap<String, String> next = new LinkedHashMap<>(keys);
        next.put(key, String.valueOf(value));
        return new ObjectId(ownerController, ownerType, name, next);
    }

    /** The value of one extra key. */
    public Optional<String> get(IdKey key) {
        return Optional.ofNullable(keys.get(key.key()));
    }

    /** {@code <owner-controller>:<owner-type>:<name>[:<key value>...]}, the value of {@code k8s.ovn.org/id}. */
    public String primaryId() {
        StringBuilder id = new StringBuilder(ownerController)
                .append(':')
                .append(ownerType.wireName())
                .append(':')
                .append(name);
        for (String value : keys.values()) {
            id.append(':').append(value);
        }
        return id.toString();
    }

    /** The external_ids every row with this id carries (immutable, sorted by key as ovn-nbctl shows them). */
    public Map<String, String> externalIds() {
        TreeMap<String, String> ids = new TreeMap<>(keys);
        ids.put(OWNER_CONTROLLER_KEY, ownerController);
        ids.put(OWNER_TYPE_KEY, ownerType.wireName());
        ids.put(NAME_KEY, name);
        ids.put(ID_KEY, primaryId());
        return Collections.unmodifiableMap(ids);
    }

    /** {@code a<unsigned decimal FNV-1a 64 of the primary id>}: the name of a port group or address set. */
    public String hashedName() {
        return ObjectNames.hashedName(primaryId());
    }

    /** The values after the name, in key order. */
    public List<String> keyValues() {
        return List.copyOf(new ArrayList<>(keys.values()));
    }

    /** The primary id stored in a row's external_ids, if the row carries one. */
    public static Optional<String> primaryIdOf(Map<String, String> externalIds) {
        return Optional.ofNullable(externalIds.get(ID_KEY));
    }

    /** Whether a row with these external_ids is owned by {@code ownerController} (and so may be changed by it). */
    public static boolean isOwnedBy(Map<String, String> externalIds, String ownerController) {
        return ownerController.equals(externalIds.get(OWNER_CONTROLLER_KEY)) && externalIds.containsKey(ID_KEY);
    }

    /** Whether a row is owned by {@code ownerController} and has owner type {@code type}. */
    public static boolean isOwnedBy(Map<String, String> externalIds, String ownerController, OwnerType type) {
        return isOwnedBy(externalIds, ownerController) && type.wireName().equals(externalIds.get(OWNER_TYPE_KEY));
    }

    @Override
    public String toString() {
        return primaryId();
    }
}
