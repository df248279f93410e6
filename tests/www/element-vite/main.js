// What an app built with Vite writes: the package's element entry by its name.
import 'workload-map/element';
