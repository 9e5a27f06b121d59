// The signed-in parts of the header, in a chunk of their own (with the dropdown menus and the
// money formatting): loaded when someone is signed in, never on a signed-out visit.
export { SecondaryBar } from './secondary-bar';
export { UserMenu } from './user-menu';
