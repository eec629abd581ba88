package io.kovn.k8s.apiserver;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.CrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import java.util.List;
import java.util.Map;

/**
 * fabric8's CRUD dispatcher with its store indexed by object name ({@link ObjectsByName}). The
 * mock finds the object of a GET, PUT, PATCH or create by testing every stored object: ~1 µs each,
 * 20-30 ms per request at 20,000 objects, which made the stand-in API server, not kovn, the
 * biggest CPU user of a benchmark node. Lookups that name one object now test only the objects of
 * that name; lists, watches and selector queries still go through the mock's own scan.
 */
final class IndexedCrudDispatcher extends KubernetesCrudDispatcher {
    private final ObjectsByName objects = new ObjectsByName();

    IndexedCrudDispatcher() {
        replaceStore();
    }

    /** The mock creates its store in a final field of its base class; the index has to be that store. */
    private void replaceStore() {
        try {
            var field = CrudDispatcher.class.getDeclaredField("map");
            field.setAccessible(true);
            field.set(this, objects);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("this fabric8 mock version keeps its objects elsewhere", e);
        }
    }

    /**
     * Called by the mock's create, update and patch handlers under its write lock, so the index is
     * not mid-update: a miss is a real miss. Several matches keep the mock's own (first-inserted) answer.
     */
    @Override
    public Map.Entry<AttributeSet, String> findResource(AttributeSet query) {
        List<Map.Entry<AttributeSet, String>> found = objects.matching(query);
        if (found == null || found.size() > 1) {
            return super.findResource(query);
        }
        return found.isEmpty() ? null : found.getFirst();
    }

    /**
     * A GET of one named object, without query parameters (no watch, no selector), answered from the
     * index when it finds exactly one object, as the mock would answer it. Anything else, and a miss
     * (the object may be between the removal and the insertion of an update, which the mock's read
     * lock waits out), goes to the mock.
     */
    @Override
    public MockResponse handleGet(String path) {
        if (path.indexOf('?') < 0) {
            List<Map.Entry<AttributeSet, String>> found = objects.matching(attributeExtractor.fromPath(path));
            if (found != null && found.size() == 1) {
                return new MockResponse().setResponseCode(200).setBody(found.getFirst().getValue());
            }
        }
        return super.handleGet(path);
    }
}
