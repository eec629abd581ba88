package io.kovn.k8s.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The CustomResourceDefinitions kovn uses: every {@code crds/*.yaml} on the class path (kovn's own {@code k8s.ovn.org}
 * types and the network-policy-api ones), from a folder or a jar.
 */
public final class CrdCatalog {

    static final String FOLDER = "crds";

    private CrdCatalog() {}

    /** All CRDs found under {@code crds/} on the class path, sorted by name. */
    public static List<CustomResourceDefinition> load() {
        ClassLoader loader = CrdCatalog.class.getClassLoader();
        List<CustomResourceDefinition> crds = new ArrayList<>();
        try {
            Enumeration<URL> roots = loader.getResources(FOLDER);
            while (roots.hasMoreElements()) {
                for (String resource : yamlResources(roots.nextElement())) {
                    try (InputStream in = loader.getResourceAsStream(resource)) {
                        crds.add(Serialization.unmarshal(in, CustomResourceDefinition.class));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        crds.sort(Comparator.comparing(crd -> crd.getMetadata().getName()));
        return List.copyOf(crds);
    }

    private static List<String> yamlResources(URL root) throws IOException {
        return switch (root.getProtocol()) {
            case "file" -> {
                try (Stream<Path> files = Files.list(Path.of(root.toURI()))) {
                    yield files.map(file -> file.getFileName().toString())
                            .filter(CrdCatalog::isYaml)
                            .map(name -> FOLDER + "/" + name)
                            .sorted()
                            .toList();
                } catch (URISyntaxException e) {
                    throw new IOException(e);
                }
            }
            case "jar" -> {
                JarURLConnection connection = (JarURLConnection) root.openConnection();
                connection.setUseCaches(false);
                try (JarFile jar = connection.getJarFile()) {
                    yield jar.stream()
                            .map(JarEntry::getName)
                            .filter(name -> name.startsWith(FOLDER + "/") && name.indexOf('/', FOLDER.length() + 1) < 0)
                            .filter(CrdCatalog::isYaml)
                            .sorted()
                            .toList();
                }
            }
            default -> throw new IOException("cannot list CRDs in " + root);
        };
    }

    private static boolean isYaml(String name) {
        return name.endsWith(".yaml") || name.endsWith(".yml");
    }
}
